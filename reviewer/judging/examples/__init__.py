"""Example judges speaking the judge protocol (stdlib only; never imported by reviewer itself).

- :mod:`.openai_chat`: asks a model behind an OpenAI-compatible chat endpoint the user names.

The deterministic judge the tests run is ``tests/judges/script_judge.py``.
"""
