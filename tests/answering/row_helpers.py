"""Tables on plain data for the row tests, and what a question names in one."""
from policypal.answering.evidence import TableData, TableRow
from policypal.answering.rows import match_table


def table(headers, rows, caption="", first_id=900):
    return TableData(caption, tuple(headers), tuple(TableRow(tuple(r), chunk_id=first_id + i) for i, r in enumerate(rows)))


def named(question, t):
    """(how, the named rows' first cells, the absent label, the asked columns' headers), or None."""
    m = match_table(question, t)
    if m is None:
        return None
    return m.how, [r.cells[0] for r in m.rows], m.asked, [t.headers[i] for i in m.columns]


def ranked_tables(*placed, similarities=()):
    """Evidence of whole tables as the search ranks them, best first: (breadcrumb, table) pairs,
    each at its similarity (0.5 when not given)."""
    from policypal.answering.evidence import Evidence

    return [Evidence(key=n, breadcrumb=breadcrumb, text=t.caption.split(":")[0], kind="table", rank=n,
                     similarity=similarities[n - 1] if n <= len(similarities) else 0.5, table=t)
            for n, (breadcrumb, t) in enumerate(placed, start=1)]
