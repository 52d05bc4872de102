"""Specification and capability colours stay apart for people who see colour differently.

The colour-safe theme must keep the two verdicts distinct under protanopia, deuteranopia and
tritanopia (simulated with Machado et al. 2009) and in monochrome (a clear lightness gap). Every
shipped theme must at least keep them apart under the three dichromacies and readable on its
background. The printed table is for people tuning a theme.
"""

from __future__ import annotations

import pytest
from colourvision import KINDS, contrast, delta_e, lab, linear, seen

from reviewer.store.settings.themes import load_themes

MIN_DELTA_E = 20.0
"""CIE76 distance that reads as clearly different colours (2.3 is just noticeable)."""
MIN_LIGHTNESS_GAP = 20.0
"""CIELAB L* difference for monochrome (greyscale screen, print)."""
MIN_LUMINANCE_CONTRAST = 2.0
MIN_BACKGROUND_CONTRAST = 3.0
"""WCAG 2 minimum for user-interface components and large text."""


def test_simulation_is_sane() -> None:
    # Pure red and green collapse for a protanope and a deuteranope; blue and yellow do not.
    for kind in ("protanopia", "deuteranopia"):
        assert delta_e(seen("#ff0000", kind), seen("#00ff00", kind)) < delta_e(linear("#ff0000"), linear("#00ff00")) / 2
        assert delta_e(seen("#0000ff", kind), seen("#ffff00", kind)) > 60
    # Blue and green collapse more for a tritanope than for anyone else.
    assert delta_e(seen("#0000ff", "tritanopia"), seen("#00aa00", "tritanopia")) < delta_e(linear("#0000ff"), linear("#00aa00"))
    assert seen("#808080", "monochrome") == pytest.approx(linear("#808080"), abs=1e-6)


def test_colour_safe_theme_keeps_verdicts_apart_everywhere() -> None:
    spec = load_themes().themes["reviewer-cvd"]
    a, b = spec.specification_color, spec.capability_color
    assert (a, b) == ("#0072b2", "#e69f00"), "Okabe-Ito blue and orange"
    for kind in KINDS:
        distance = delta_e(seen(a, kind), seen(b, kind))
        print(f"reviewer-cvd {kind:13} delta E {distance:6.1f}")
        assert distance >= MIN_DELTA_E, kind
    lightness_gap = abs(lab(linear(a))[0] - lab(linear(b))[0])
    assert lightness_gap >= MIN_LIGHTNESS_GAP
    assert contrast(linear(a), linear(b)) >= MIN_LUMINANCE_CONTRAST
    assert spec.specification_symbol != spec.capability_symbol


def test_colour_safe_theme_keeps_success_and_error_apart() -> None:
    spec = load_themes().themes["reviewer-cvd"]
    for kind in KINDS[:4]:
        assert delta_e(seen(spec.colors["success"], kind), seen(spec.colors["error"], kind)) >= MIN_DELTA_E, kind


@pytest.mark.parametrize("name", sorted(load_themes().themes))
def test_every_theme_keeps_verdicts_apart_and_readable(name: str) -> None:
    spec = load_themes().themes[name]
    a, b = spec.specification_color, spec.capability_color
    for kind in KINDS[:4]:
        assert delta_e(seen(a, kind), seen(b, kind)) >= MIN_DELTA_E, kind
    for ground in ("background", "surface", "panel"):
        bg = spec.colors[ground]
        for colour in (a, b):
            ratio = contrast(linear(colour), linear(bg))
            print(f"{name} {colour} on {ground} {bg}: contrast {ratio:.2f}")
            assert ratio >= MIN_BACKGROUND_CONTRAST, (colour, ground)
