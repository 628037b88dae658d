"""Serve the Tricky Treats web app on http://127.0.0.1:8000 (``--port`` to change).

pip install -e '.[web]' && python examples/web/serve.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import uvicorn

sys.path.insert(0, str(Path(__file__).parent))

from tricky_treats_web import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    print(f"Tricky Treats: open http://{args.host}:{args.port}/ (Ctrl+C to stop)")
    uvicorn.run(
        create_app(), host=args.host, port=args.port, ws="websockets-sansio", log_level="warning"
    )


if __name__ == "__main__":
    main()
