"""Every CSV the app writes goes through here, so no cell can run as a spreadsheet formula.

A player named ``=HYPERLINK("http://x","y")`` or ``+cmd|' /C calc'!A0`` is plain text to the
app, but Excel, LibreOffice Calc and Google Sheets run a cell that begins with ``=``, ``+``,
``-`` or ``@`` (and one whose tab or carriage return comes first) as a formula when the file
is opened. OWASP's "CSV Injection" page (owasp.org/www-community/attacks/CSV_Injection)
says how to neutralise it, and that is done here for every text cell: a cell beginning with
one of those six characters gets a single quote in front (the spreadsheet shows it as text,
the quote hidden), every cell is wrapped in double quotes and a double quote inside a cell is
doubled (``csv.QUOTE_ALL``). A number the app itself made (a score of ``-2``) is a number,
not text from outside, and is written as it is.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value) -> object:
    """One cell as it may be written: text beginning like a formula gets a leading ``'``;
    numbers (not booleans) stay numbers; None is empty; anything else is its text."""
    if value is None:
        return ""
    if type(value) in (int, float):
        return value
    value = value if isinstance(value, str) else str(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def to_csv(header: Iterable[str], rows: Iterable[Iterable]) -> str:
    """A whole CSV file (header row first), every cell through `cell`, every cell quoted."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow([cell(name) for name in header])
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()
