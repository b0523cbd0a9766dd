"""``python -m tutor.i18n check ca``: the same check as ``rules-tutor languages ca`` (``tutor.i18n.catalogs``)."""

import sys

from tutor.i18n.catalogs import main

sys.exit(main(sys.argv[1:]))
