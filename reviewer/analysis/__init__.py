"""Analysis of failures and labels (pure logic over the model, reading recorded data only
through the store; no Textual, no git). Every result is a frozen record, safe to build in a
worker thread; everything it shows of recorded text is sanitised.

Sub-packages:

- :mod:`.reading`: linear readers of recorded text (failure texts, grader sources, briefs,
  the program's code and output).
- :mod:`.evidence`: the evidence of one failure (demands stated or not, met or not, near misses,
  crashes), the strip's lines, proposed repairs, the same check across models.
- :mod:`.stats`: statistics, pass rates, intervals, predictor scores, the report's data.
- :mod:`.clusters`: failures grouped by check or by message across runs.
"""

from __future__ import annotations
