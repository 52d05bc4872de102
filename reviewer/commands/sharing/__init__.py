"""Commands that hand results to someone else: ``reviewer report`` (one self-contained HTML page
with its plots) and ``reviewer serve`` (the app in a browser, behind a token and an origin check).
"""
