"""The table's guidance: the steps owed by hand, the physical setup guide, the rules cited
beside a refusal, the finished games' history.
"""
