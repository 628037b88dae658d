"""Write the web pages' messages as JSON, one file per language, from the web app's catalogs.

``scripts/translations`` runs it after updating the catalogs: the browser reads
``examples/web/src/tricky_treats_web/static/i18n/LANG.json`` (English id -> text), which the
server puts in each page. Needs Babel (a developers' tool, as for the engine's catalogs).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po

WEB = Path(__file__).resolve().parent.parent / "examples" / "web" / "src" / "tricky_treats_web"


def messages(po: Path) -> dict[str, str]:
    """The translated messages of a catalog, English id to text (untranslated ones left out)."""
    with po.open("rb") as file:
        catalog = read_po(file)
    return {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string and not m.fuzzy
    }


def write() -> list[Path]:
    """Write every language's JSON; return the files written."""
    written = []
    for po in sorted((WEB / "locale").glob("*/LC_MESSAGES/tricky_treats_web.po")):
        language = po.parent.parent.name
        target = WEB / "static" / "i18n" / f"{language}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(messages(po), ensure_ascii=False, indent=0, sort_keys=True) + "\n"
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


if __name__ == "__main__":
    for path in write():
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    sys.exit(0)
