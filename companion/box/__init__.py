"""The owner's box: the catalog and its overrides, the deck pages' data, backups and the check
of a restore.
"""
