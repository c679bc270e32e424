"""Tables on plain data for the row tests, and what a question names in one."""
from policypal.answering.evidence import TableData, TableRow
from policypal.answering.rows import match_table


def table(headers, rows, caption="", first_id=900, label_columns=1):
    return TableData(caption, tuple(headers), tuple(TableRow(tuple(r), chunk_id=first_id + i) for i, r in enumerate(rows)),
                     label_columns=label_columns)


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


def ranked_rows(breadcrumb, t, rows=None):
    """Evidence of a table's row sentences as the search ranks them, best first (the given rows,
    every row when none), each as a row chunk of that table."""
    from policypal.answering.evidence import Evidence

    rows = t.rows if rows is None else rows
    return [Evidence(key=1000 + n, breadcrumb=breadcrumb, kind="table_row", rank=n + 1, similarity=0.6 - n * 0.01,
                     table=t, text=f"{t.caption}: " + ", ".join(f"{h} {c}" if i == 0 else f"{h}: {c}"
                                                                 for i, (h, c) in enumerate(zip(t.headers, r.cells))))
            for n, r in enumerate(rows)]
