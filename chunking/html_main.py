"""Keep the main content of a saved web page before Docling converts it.

Policies are often published as web pages (government guidance, intranet
pages) and uploaded as "Save page as" HTML: the policy text sits between a
cookie banner, a site header, navigation menus, breadcrumbs, "related content"
asides and a footer full of links. All of that would become chunks. This module
cuts the page down to its main content:

1. the content root: the ``<main>`` element (or ``role="main"``), else the one
   ``<article>``, else the whole ``<body>``;
2. boilerplate removed inside it: navigation, asides, forms, scripts and styles,
   elements with a landmark role that is not content (navigation, banner,
   contentinfo, search, complementary), skip links, and elements whose id or
   class names a cookie banner, breadcrumbs or a "related" block; with the body
   as root also the page-level ``<header>`` and ``<footer>``;
3. the page title (the first ``<h1>``, else ``<title>`` without a trailing
   " - Site name") put back as an ``<h1>`` when the root has none, because
   Docling makes the first ``<h1>`` the document title.

It is conservative: tables, lists and headings are kept; an id/class match is
not removed when it holds half of the content or more, and never on a table;
when the result has almost no text, the whole page is used instead (and when
even that is nearly empty, the original bytes go through untouched).

Parsing uses lxml's HTML parser with network access off: an HTML parser does
not expand entity declarations, so the XML entity attacks defusedxml guards
against do not apply here.
"""
from __future__ import annotations

import copy
import re

from lxml import etree
from lxml import html as lxml_html

__all__ = ["main_content_html"]

# Never content: dropped everywhere before anything is measured.
_NEVER_CONTENT = ("script", "style", "noscript", "template", "link", "meta", "object", "embed")
# Dropped inside the content root too.
_NOT_POLICY_TEXT = ("nav", "aside", "form", "iframe", "svg", "button", "dialog", "select", "textarea", "input")
_BOILERPLATE_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "complementary"})
# Prefixes of id/class tokens that mark boilerplate ("govuk-breadcrumbs", "cookieBanner").
_BOILERPLATE_TOKEN_PREFIXES = ("cookie", "consent", "gdpr", "breadcrumb", "related", "skiplink")
_SKIP_TOKEN_PARTNERS = frozenset({"link", "links", "to", "nav", "main", "content"})
_SKIP_LINK_TEXT = re.compile(r"^\s*skip\s+(?:to|navigation|nav|main|content|links?)\b", re.IGNORECASE)
_TITLE_SUFFIX = re.compile(r"^(?P<title>.+?)\s+[-\u2013\u2014|:]\s+(?P<site>[^-\u2013\u2014|:]+)$")
_TABLE_TAGS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col"})

MIN_WORDS = 50  # below this many words (and a fifth of the page) a result counts as "almost no text"


def main_content_html(data: bytes) -> bytes:
    """UTF-8 HTML bytes in, the page cut down to its main content out (UTF-8 HTML)."""
    try:
        page = _parse(data)
    except (etree.ParserError, ValueError):
        return data
    body = page.find("body")
    if body is None:
        return data
    for element in list(page.iter(*_NEVER_CONTENT)):
        _drop(element)
    page_words = _word_count(body)
    candidates = [root for root in (_main_element(body), _single_article(body)) if root is not None]
    for root in [*candidates, body]:
        content = _cleaned_copy(root, page_level=root is body)
        if not _almost_empty(_word_count(content), page_words):
            return _document(content, _page_title(page))
    return data


# --- parsing and output ----------------------------------------------------------------


def _parse(data: bytes) -> lxml_html.HtmlElement:
    parser = lxml_html.HTMLParser(
        encoding="utf-8", no_network=True, remove_comments=True, remove_pis=True, huge_tree=False
    )
    page = lxml_html.document_fromstring(data, parser=parser)
    if page is None:
        raise ValueError("empty HTML")
    return page


def _document(content: lxml_html.HtmlElement, title: str) -> bytes:
    page = lxml_html.fromstring("<html><head><meta charset='utf-8'></head><body></body></html>")
    head, body = page.find("head"), page.find("body")
    if title:
        etree.SubElement(head, "title").text = title
    if title and not content.xpath(".//h1"):
        etree.SubElement(body, "h1").text = title
    content.tag = "div"  # <main>, <article> or <body>: a plain container in the new page
    body.append(content)
    return lxml_html.tostring(page, encoding="utf-8", method="html", doctype="<!DOCTYPE html>")


# --- choosing the content root ----------------------------------------------------------


def _main_element(body: lxml_html.HtmlElement) -> lxml_html.HtmlElement | None:
    """The outermost <main> / role="main" element; the wordiest when there are several."""
    found = [e for e in body.iter() if _is_element(e) and (e.tag == "main" or _role(e) == "main")]
    outermost = [e for e in found if not any(a in found for a in e.iterancestors())]
    if not outermost:
        return None
    return max(outermost, key=_word_count)


def _single_article(body: lxml_html.HtmlElement) -> lxml_html.HtmlElement | None:
    articles = [e for e in body.iter("article") if not any(a.tag == "article" for a in e.iterancestors())]
    return articles[0] if len(articles) == 1 else None


# --- removing boilerplate ------------------------------------------------------------------


def _cleaned_copy(root: lxml_html.HtmlElement, *, page_level: bool) -> lxml_html.HtmlElement:
    content = copy.deepcopy(root)
    total = _word_count(content)
    for element in list(content.iter()):
        if element is content or not _is_element(element) or _detached(element, content):
            continue
        if _is_boilerplate(element, page_level=page_level, content_words=total):
            _drop(element)
    return content


def _is_boilerplate(element: lxml_html.HtmlElement, *, page_level: bool, content_words: int) -> bool:
    if element.tag in _NOT_POLICY_TEXT or _role(element) in _BOILERPLATE_ROLES:
        return True
    if page_level and element.tag in ("header", "footer") and not _inside_content_section(element):
        return True
    if element.tag == "a" and _SKIP_LINK_TEXT.match(element.text_content() or "") and (
        element.get("href") or ""
    ).startswith("#"):
        return True
    if element.tag in _TABLE_TAGS or not _named_as_boilerplate(element):
        return False
    return _word_count(element) * 2 < max(content_words, 1)  # never half the content


def _named_as_boilerplate(element: lxml_html.HtmlElement) -> bool:
    tokens = [t for t in re.split(r"[^a-z0-9]+", f"{element.get('id', '')} {element.get('class', '')}".lower()) if t]
    if any(t.startswith(_BOILERPLATE_TOKEN_PREFIXES) for t in tokens):
        return True
    return "skip" in tokens and any(t in _SKIP_TOKEN_PARTNERS for t in tokens)


def _inside_content_section(element: lxml_html.HtmlElement) -> bool:
    """A <header>/<footer> of an article or section belongs to it, not to the page."""
    return any(a.tag in ("article", "section", "main") for a in element.iterancestors())


def _drop(element: lxml_html.HtmlElement) -> None:
    """Remove an element and its content, keeping the text that follows it (its tail)."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def _detached(element: lxml_html.HtmlElement, root: lxml_html.HtmlElement) -> bool:
    """Already removed along with an ancestor."""
    for ancestor in element.iterancestors():
        if ancestor is root:
            return False
    return True


# --- small helpers --------------------------------------------------------------------------


def _is_element(node: object) -> bool:
    return isinstance(node, lxml_html.HtmlElement) and isinstance(node.tag, str)


def _role(element: lxml_html.HtmlElement) -> str:
    return (element.get("role") or "").strip().lower()


def _word_count(element: lxml_html.HtmlElement) -> int:
    return len((element.text_content() or "").split())


def _almost_empty(words: int, page_words: int) -> bool:
    return words == 0 or (words < MIN_WORDS and words * 5 < page_words)


def _page_title(page: lxml_html.HtmlElement) -> str:
    """The first <h1> outside the site header and menus (a logo is often an <h1>),
    else <title> without a trailing " - Site name"."""
    for h1 in page.iter("h1"):
        text = " ".join((h1.text_content() or "").split())
        in_site_chrome = any(
            (a.tag in ("header", "nav", "footer") and not _inside_content_section(a))
            or _role(a) in _BOILERPLATE_ROLES
            for a in h1.iterancestors()
        )
        if text and not in_site_chrome:
            return text
    title = page.find(".//title")
    text = " ".join((title.text_content() if title is not None else "").split())
    match = _TITLE_SUFFIX.match(text)
    if match and len(match.group("site").split()) <= 4:
        return match.group("title")
    return text
