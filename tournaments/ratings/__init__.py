"""The public ratings page: every rated player by ordinal, and when the ratings last changed."""
