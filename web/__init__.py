"""Templates, static assets and translations: presentation only."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
TRANSLATIONS = ROOT / "translations"
