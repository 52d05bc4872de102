"""Judges' predictions on disk: ``<session>/predictions/<judge>.toml``, read as hostile input,
written atomically (:mod:`.files`). A prediction is data like a label, never a label.

The format is documented for harness authors in ``sessions/README.md`` (Predictions).
"""

from __future__ import annotations

from reviewer.store.predictions.files import (
    EMPTY,
    FILE_CAP,
    FORMAT,
    PREDICTIONS_DIR,
    PredictionSet,
    PredictionsUnsafe,
    file_bytes,
    prediction_path,
    read_file,
    read_predictions,
    save_predictions,
)

__all__ = ["EMPTY", "FILE_CAP", "FORMAT", "PREDICTIONS_DIR", "PredictionSet", "PredictionsUnsafe", "file_bytes",
           "prediction_path", "read_file", "read_predictions", "save_predictions"]
