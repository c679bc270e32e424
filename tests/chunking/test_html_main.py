"""Saved web pages: only the main content reaches Docling, with its structure intact."""
from __future__ import annotations

from pathlib import Path

import pytest

from chunking.chunker import chunk_document
from chunking.config import ChunkConfig
from chunking.convert import convert_file
from chunking.html_main import main_content_html
from chunking.model import Document

TITLE = "Business travel and subsistence policy"

# A guidance page as a browser saves it: skip link, cookie banner, site header with a
# menu and a search form, breadcrumbs, then <main> with an in-page contents list, the
# policy itself, a print button, a "Related content" aside and a feedback form, then
# a footer of links. Scripts and styles in the head and at the end of the body.
GOV_PAGE = f"""\
<!DOCTYPE html>
<html lang="en" class="govuk-template">
<head>
  <meta charset="utf-8">
  <title>{TITLE} - GOV.UK</title>
  <link rel="stylesheet" href="/assets/application.css">
  <style>.govuk-header {{ background: #0b0c0c; }} .js-enabled .menu {{ display: none; }}</style>
  <script>window.dataLayer = window.dataLayer || []; function gtag(){{dataLayer.push(arguments);}}</script>
</head>
<body class="govuk-template__body">
  <script>document.body.className += ' js-enabled';</script>
  <a href="#main-content" class="govuk-skip-link" data-module="govuk-skip-link">Skip to main content</a>
  <div id="global-cookie-message" class="gem-c-cookie-banner govuk-clearfix" role="region" aria-label="Cookies on GOV.UK">
    <div class="govuk-cookie-banner__message">
      <h2 class="govuk-cookie-banner__heading">Cookies on GOV.UK</h2>
      <p>We use some essential cookies to make this website work. We'd like to set additional
      cookies to understand how you use GOV.UK, remember your settings and improve government services.</p>
      <button type="button" class="govuk-button">Accept additional cookies</button>
      <button type="button" class="govuk-button">Reject additional cookies</button>
      <a class="govuk-link" href="/help/cookies">View cookies</a>
    </div>
  </div>
  <header role="banner" class="govuk-header" data-module="govuk-header">
    <div class="govuk-header__container govuk-width-container">
      <a href="/" class="govuk-header__link govuk-header__link--homepage">GOV.UK</a>
      <nav aria-label="Menu" class="govuk-header__navigation">
        <ul>
          <li><a href="/browse/benefits">Benefits</a></li>
          <li><a href="/browse/births-deaths-marriages">Births, death, marriages and care</a></li>
          <li><a href="/browse/business">Business and self-employed</a></li>
          <li><a href="/browse/working">Working, jobs and pensions</a></li>
        </ul>
      </nav>
      <form class="gem-c-search" action="/search/all" method="get" role="search">
        <label for="search-main">Search GOV.UK</label>
        <input type="search" id="search-main" name="keywords">
        <button type="submit">Search</button>
      </form>
    </div>
  </header>
  <div class="govuk-width-container">
    <div class="gem-c-breadcrumbs govuk-breadcrumbs" data-module="gem-track-click">
      <ol class="govuk-breadcrumbs__list">
        <li class="govuk-breadcrumbs__list-item"><a href="/">Home</a></li>
        <li class="govuk-breadcrumbs__list-item"><a href="/government">Government</a></li>
        <li class="govuk-breadcrumbs__list-item"><a href="/government/policies">Departmental policies</a></li>
      </ol>
    </div>
    <main class="govuk-main-wrapper" id="main-content" role="main">
      <div class="govuk-grid-row">
        <div class="govuk-grid-column-two-thirds">
          <span class="govuk-caption-xl">Corporate policy</span>
          <h1 class="govuk-heading-xl">{TITLE}</h1>
          <p class="govuk-body-l">How staff of the department book, claim and are repaid for business travel
          and the meals and hotels that go with it.</p>
          <nav class="gem-c-contents-list" aria-label="Contents" role="navigation">
            <h2 class="gem-c-contents-list__title">Contents</h2>
            <ol class="gem-c-contents-list__list">
              <li><a href="#booking-travel">Booking travel</a></li>
              <li><a href="#subsistence-rates">Subsistence rates</a></li>
            </ol>
          </nav>
          <div class="govuk-govspeak">
            <h2 id="booking-travel">1. Booking travel</h2>
            <p>All journeys are booked through the departmental travel booking service at least seven
            days before travel, unless the journey is urgent.</p>
            <h3 id="rail-travel">1.1 Rail travel</h3>
            <p>Standard class is the default for rail journeys of any length.</p>
            <p>First class may be booked only where the journey is longer than four hours and a
            deputy director has approved it in writing.</p>
            <p>Before booking a first class ticket, the traveller must:</p>
            <ul>
              <li>check that no cheaper advance fare is available;</li>
              <li>attach the written approval to the booking;</li>
              <li>record the reason on the travel request.</li>
            </ul>
            <h2 id="subsistence-rates">2. Subsistence rates</h2>
            <p>Meals are repaid up to the rates below, with receipts, for each day away from the office.</p>
            <table class="govuk-table">
              <caption class="govuk-table__caption">Table 1: Day subsistence rates (GBP)</caption>
              <thead class="govuk-table__head">
                <tr class="govuk-table__row"><th scope="col">Time away</th><th scope="col">London</th><th scope="col">Rest of UK</th></tr>
              </thead>
              <tbody class="govuk-table__body">
                <tr class="govuk-table__row"><th scope="row">More than 5 hours</th><td>10.00</td><td>8.00</td></tr>
                <tr class="govuk-table__row"><th scope="row">More than 10 hours</th><td>20.00</td><td>16.00</td></tr>
              </tbody>
            </table>
            <h3 id="overnight-stays">2.1 Overnight stays</h3>
            <p>Hotels are booked through the travel booking service within the nightly limit of 150.00
            pounds in London and 110.00 pounds elsewhere.</p>
            <p>This limit applies to all grades except senior civil servants, who follow the cabinet office rules.</p>
          </div>
          <div class="gem-c-print-link"><button class="govuk-link" data-module="print-link">Print this page</button></div>
        </div>
        <div class="govuk-grid-column-one-third">
          <aside class="gem-c-related-navigation" role="complementary">
            <h2 class="gem-c-related-navigation__main-heading">Related content</h2>
            <ul><li><a href="/guidance/expenses">Claiming expenses</a></li>
                <li><a href="/guidance/overseas-travel">Overseas travel guidance</a></li></ul>
          </aside>
        </div>
      </div>
      <div class="gem-c-feedback" data-module="feedback">
        <form class="gem-c-feedback__prompt"><h2>Is this page useful?</h2>
          <button>Yes</button><button>No</button><a href="/contact/govuk/problem">Report a problem with this page</a>
        </form>
      </div>
    </main>
  </div>
  <footer class="govuk-footer" role="contentinfo">
    <div class="govuk-width-container">
      <h2 class="govuk-visually-hidden">Support links</h2>
      <ul class="govuk-footer__inline-list">
        <li><a href="/help">Help</a></li><li><a href="/help/privacy-notice">Privacy</a></li>
        <li><a href="/help/cookies">Cookies</a></li><li><a href="/contact">Contact</a></li>
        <li><a href="/help/accessibility-statement">Accessibility statement</a></li>
      </ul>
      <p>All content is available under the Open Government Licence v3.0, except where otherwise stated</p>
      <a class="govuk-footer__copyright-logo" href="/copyright">&copy; Crown copyright</a>
    </div>
  </footer>
  <script src="/assets/application.js"></script>
  <script>window.GOVUK.analytics.init({{ trackPageview: true }});</script>
</body>
</html>
"""

BOILERPLATE = [
    "Skip to main content", "Cookies on GOV.UK", "essential cookies", "Accept additional cookies",
    "Benefits", "Working, jobs and pensions", "Search GOV.UK", "Departmental policies", "Home",
    "Contents", "Print this page", "Related content", "Claiming expenses", "Is this page useful",
    "Report a problem", "Support links", "Privacy", "Accessibility statement",
    "Open Government Licence", "Crown copyright", "dataLayer", "gtag", "GOVUK.analytics",
    "background:", "js-enabled", "GOV.UK",
]
MAIN_TEXT = [
    "How staff of the department book, claim and are repaid for business travel",
    "at least seven days before travel, unless the journey is urgent.",
    "Standard class is the default for rail journeys of any length.",
    "First class may be booked only where the journey is longer than four hours and a deputy "
    "director has approved it in writing.",
    "Meals are repaid up to the rates below, with receipts, for each day away from the office.",
    "nightly limit of 150.00 pounds in London and 110.00 pounds elsewhere.",
    "This limit applies to all grades except senior civil servants",
]


def all_text(doc: Document) -> str:
    parts = [doc.title]
    for block in doc.blocks:
        parts += [block.text, *block.items]
        if block.table:
            parts += [block.table.caption]
            parts += [c for row in (*block.table.header_rows, *block.table.rows) for c in row]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def gov_doc(tmp_path_factory) -> Document:
    path = tmp_path_factory.mktemp("html") / "business-travel.html"
    path.write_text(GOV_PAGE, encoding="utf-8")
    return convert_file(path)


def test_gov_page_boilerplate_is_gone(gov_doc: Document):
    text = all_text(gov_doc)
    for phrase in BOILERPLATE:
        assert phrase not in text, phrase


def test_gov_page_main_content_and_structure_remain(gov_doc: Document):
    assert gov_doc.title == TITLE
    assert [(b.level, b.text) for b in gov_doc.blocks if b.kind == "heading"] == [
        (1, "1. Booking travel"),
        (2, "1.1 Rail travel"),
        (1, "2. Subsistence rates"),
        (2, "2.1 Overnight stays"),
    ]
    text = " ".join(all_text(gov_doc).split())
    for phrase in MAIN_TEXT:
        assert phrase in text, phrase
    (lst,) = [b for b in gov_doc.blocks if b.kind == "list"]
    assert lst.text == "Before booking a first class ticket, the traveller must:"
    assert lst.items == (
        "check that no cheaper advance fare is available;",
        "attach the written approval to the booking;",
        "record the reason on the travel request.",
    )
    (table,) = [b.table for b in gov_doc.blocks if b.kind == "table"]
    assert table.caption == "Table 1: Day subsistence rates (GBP)"
    assert table.header_rows == (("Time away", "London", "Rest of UK"),)
    assert table.rows == (("More than 5 hours", "10.00", "8.00"), ("More than 10 hours", "20.00", "16.00"))


def test_gov_page_chunks_carry_no_boilerplate(gov_doc: Document, counter):
    chunks = chunk_document(gov_doc, config=ChunkConfig(), counter=counter)
    for chunk in chunks:
        assert chunk.breadcrumb[0] == TITLE
        for phrase in BOILERPLATE:
            assert phrase not in chunk.embed_text, (phrase, chunk.text[:80])
    rows = [c.text for c in chunks if c.kind == "table_row"]
    assert any("More than 10 hours" in r and "London: 20.00" in r for r in rows)


# --- the choice of content root and the safety nets, on small pages ----------------------


def kept(html: str) -> str:
    """The visible text main_content_html keeps, whitespace collapsed."""
    from lxml import html as lxml_html

    page = lxml_html.document_fromstring(main_content_html(html.encode("utf-8")))
    return " ".join(" ".join(page.find("body").itertext()).split())


PROSE = " ".join(f"Policy sentence number {i} says what staff must do." for i in range(12))


def test_single_article_is_the_content_when_there_is_no_main():
    page = f"""<html><head><title>Leave rules | Intranet</title></head><body>
      <header><h1>Intranet</h1><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
      <article><header><h1>Leave rules</h1><p>Updated 2 May</p></header><p>{PROSE}</p>
        <footer><p>Policy owner: People team.</p></footer></article>
      <div class="sidebar">Latest news from the canteen.</div>
      <footer><p>Intranet footer links</p></footer></body></html>"""
    text = kept(page)
    assert text.startswith("Leave rules Updated 2 May")  # the article's own header stays
    assert PROSE in text and "Policy owner: People team." in text
    for gone in ("Intranet", "Home", "News", "canteen", "footer links"):
        assert gone not in text


def test_without_main_or_article_the_page_level_chrome_goes():
    page = f"""<html><body>
      <div id="cookieConsent">We use cookies. <button>OK</button></div>
      <header class="site-header"><a href="/">Acme</a></header>
      <nav><ul><li>About</li><li>Careers</li></ul></nav>
      <ol class="breadcrumb"><li>Home</li><li>Policies</li></ol>
      <h1>Gift policy</h1><p>{PROSE}</p>
      <section><header><h2>Gifts from suppliers</h2></header><p>Gifts over 50.00 are declared.</p></section>
      <div class="related-links"><h2>Related policies</h2><ul><li>Hospitality</li></ul></div>
      <footer>Acme Ltd, registered in England</footer></body></html>"""
    text = kept(page)
    assert text.startswith("Gift policy")
    assert "Gifts from suppliers Gifts over 50.00 are declared." in text
    for gone in ("cookies", "Acme", "About", "Careers", "Home", "Related policies", "Hospitality"):
        assert gone not in text


def test_title_outside_main_becomes_the_h1():
    page = f"""<html><head><title>Travel policy - Example Council</title></head><body>
      <header><h1 class="logo">Example Council</h1></header>
      <div class="page-header"><h1>Travel policy</h1></div>
      <main><h2>Scope</h2><p>{PROSE}</p></main></body></html>"""
    html = main_content_html(page.encode("utf-8")).decode("utf-8")
    assert "<h1>Travel policy</h1>" in html
    assert "Example Council" not in html


def test_title_falls_back_to_the_title_element_without_the_site_name():
    page = f"<html><head><title>Expenses policy – Example Trust</title></head><body><main><p>{PROSE}</p></main></body></html>"
    assert "<h1>Expenses policy</h1>" in main_content_html(page.encode("utf-8")).decode("utf-8")


def test_almost_empty_main_falls_back_to_the_page():
    page = f"""<html><body><nav><a href="/">Home</a></nav><main><p>Loading…</p></main>
      <div class="content"><h1>Remote working</h1><p>{PROSE}</p></div></body></html>"""
    text = kept(page)
    assert "Remote working" in text and PROSE in text
    assert "Home" not in text


def test_a_class_match_that_holds_the_content_is_kept():
    rows = "".join(f"<tr><td>cookie_{i}</td><td>{i} days</td></tr>" for i in range(5))
    page = f"""<html><body><main><div class="cookie-policy-content"><h1>Cookie policy</h1><p>{PROSE}</p>
      <table class="cookie-table"><tr><th>Name</th><th>Expires</th></tr>{rows}</table></div>
      <div class="cookie-banner">Accept cookies?</div></main></body></html>"""
    text = kept(page)
    assert PROSE in text and "cookie_4 4 days" in text
    assert "Accept cookies?" not in text


@pytest.mark.parametrize("data", [b"", b"   ", b"<html></html>", b"<html><body><nav>Home</nav></body></html>"])
def test_unusable_input_comes_back_unchanged(data: bytes):
    assert main_content_html(data) == data


def test_sample_html_policy_still_converts_whole():
    sample = Path(__file__).resolve().parents[2] / "samples" / "policies" / "refunds.html"
    doc = convert_file(sample)
    assert doc.title == "Harbourline Customer Refunds Policy"
    assert any(b.kind == "table" and b.table.caption.startswith("Table 1") for b in doc.blocks)
    assert "Enterprise contracts are an exception" in all_text(doc)
