"""Rendering shared by the widgets: recorded text into display lines, always as plain Content.

Everything here is pure and may run in a worker thread (no widget, no app state): the view
worker renders a failure's heavy parts (brief, code, output, transcript) here before the
screen takes them in one paint.
"""
