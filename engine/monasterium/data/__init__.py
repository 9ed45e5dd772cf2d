"""Monasterium catalog data (demo until the owner enters their box)."""
