"""Names that cannot pass for others: a learner's typed name is refused when it looks like an unnamed learner's
("Learner 19", "learner19", "#19", "19") or like a classmate's name without being it (a homoglyph: a Cyrillic "а"
in "Аna", "B0b", "Ian" typed as "lan", a fullwidth or zero-width trick).

``skeleton(name)`` is what a name looks like: NFKC (fullwidth letters, ligatures, compatibility forms), marks that
draw nothing dropped, a small confusables table (``CONFUSABLES``: the Cyrillic, Greek and Armenian letters that look
like Latin ones, digits and signs that look like letters, after Unicode TR39's confusables.txt but only its
look-alikes of Latin letters and digits, which is what names in a class are written with), casefolded, with "rn"
read as "m" and "vv" as "w". No library: none is installed here, and the PyPI ones (``confusables``,
``confusable-homoglyphs``) would be a new dependency of the server for this one table. Two names with the same
skeleton that are not the same text are confusable; the same name typed twice is not refused (two Anas are told
apart in the grid: "Ana", "Ana (2)", and each learner's number is shown beside the name).
"""

from __future__ import annotations

import re
import unicodedata

CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "ѕ": "s",
        "т": "t",
        "у": "y",
        "х": "x",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ӏ": "l",
        "А": "A",
        "В": "B",
        "Е": "E",
        "Ё": "E",
        "Ѕ": "S",
        "І": "l",
        "Ї": "l",
        "Ј": "J",
        "К": "K",
        "М": "M",
        "Н": "H",
        "О": "O",
        "Р": "P",
        "С": "C",
        "Т": "T",
        "У": "Y",
        "Х": "X",
        "Ԁ": "d",
        "Ӏ": "l",
        "Ү": "Y",
        "ү": "y",
        # Greek
        "α": "a",
        "β": "b",
        "γ": "y",
        "ε": "e",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ω": "w",
        "Α": "A",
        "Β": "B",
        "Ε": "E",
        "Ζ": "Z",
        "Η": "H",
        "Ι": "l",
        "Κ": "K",
        "Μ": "M",
        "Ν": "N",
        "Ο": "O",
        "Ρ": "P",
        "Τ": "T",
        "Υ": "Y",
        "Χ": "X",
        # Armenian and others that look like Latin letters
        "օ": "o",
        "ս": "u",
        "ց": "g",
        "ո": "n",
        "ɑ": "a",
        "ɡ": "g",
        "ı": "i",
        "ȷ": "j",
        "ℓ": "l",
        "ſ": "f",
        # digits and signs that look like letters; capital I and small l look the same in most fonts
        "0": "o",
        "1": "l",
        "|": "l",
        "I": "l",
        "!": "l",
        "5": "s",
        "$": "s",
        "@": "a",
    }
)
INVISIBLE = {"Mn", "Me", "Cf", "Cc", "Zl", "Zp"}
"""Unicode categories a look at a name does not see: combining marks drawn over nothing new (after NFKC has joined
the ones that make a letter, such as é), format characters (zero-width joiners, bidi marks), controls."""
UNNAMED = re.compile(r"(?:leamer|alumne|alumna|aprenent)\s*[#:.-]?\s*[\dlos]+|(?:n[º°.]|#)?\s*\d+")
"""The skeleton (digits kept) of a name that is a number, or the word unnamed learners are shown with followed by
what looks like a number ("Learner 19", "Lеarner l9")."""
KEEP_DIGITS = {key: value for key, value in CONFUSABLES.items() if not chr(key).isdigit()}


def _looks(name: str, digits: bool = True) -> str:
    text = unicodedata.normalize("NFKC", name)
    text = "".join(
        ch
        for ch in unicodedata.normalize("NFD", text)
        if unicodedata.category(ch) not in INVISIBLE
        or unicodedata.combining(ch)
        and ch in "\u0301\u0300\u0308\u0302\u0327\u0303\u030c"
    )
    text = unicodedata.normalize("NFC", text)
    text = text.translate(CONFUSABLES if digits else KEEP_DIGITS).casefold()
    return " ".join(text.replace("rn", "m").replace("vv", "w").split())


def skeleton(name: str) -> str:
    """What ``name`` looks like (see the module's docstring)."""
    return _looks(name)


def name_problem(name: str, classmates: list[str]) -> str:
    """Why ``name`` (cleaned) may not be taken in a class whose learners have ``classmates``' names; "" when it
    may. The same name as a classmate's is allowed (told apart in the grid)."""
    if not name:
        return ""
    if UNNAMED.fullmatch(_looks(name, digits=False)):
        return "a name may not be a number or look like an unnamed learner's"
    look, same = skeleton(name), unicodedata.normalize("NFC", name)
    exact = unicodedata.normalize("NFKC", name).casefold()
    for other in classmates:
        if unicodedata.normalize("NFC", other) != same and (
            skeleton(other) == look or unicodedata.normalize("NFKC", other).casefold() == exact
        ):
            return "this name looks like a classmate's: add a letter or an initial"
    return ""
