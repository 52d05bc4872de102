"""Colour maths for the theme tests: sRGB, CIELAB, WCAG contrast and colour-vision simulation.

Simulation uses the matrices of Machado, Oliveira and Fernandes (2009), "A Physiologically-based
Model for Simulation of Color Vision Deficiency", severity 1.0 (full dichromacy), applied to
linear RGB. Monochrome is the CIE relative luminance (what a greyscale screen or print shows).
"""

from __future__ import annotations

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}

Linear = tuple[float, float, float]


def linear(hex_colour: str) -> Linear:
    """``#rrggbb`` to linear RGB in 0..1."""
    out = []
    for i in (1, 3, 5):
        c = int(hex_colour[i : i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out[0], out[1], out[2]


def simulate(rgb: Linear, kind: str) -> Linear:
    """What a dichromat of ``kind`` sees (clipped to the gamut)."""
    if kind == "monochrome":
        y = luminance(rgb)
        return y, y, y
    m = MACHADO[kind]
    return tuple(min(1.0, max(0.0, sum(m[r][c] * rgb[c] for c in range(3)))) for r in range(3))  # type: ignore[return-value]


def luminance(rgb: Linear) -> float:
    """CIE / WCAG relative luminance."""
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def lab(rgb: Linear) -> Linear:
    """Linear sRGB (D65) to CIELAB."""
    x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047
    y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: Linear, b: Linear) -> float:
    """CIE76 colour difference of two linear RGB colours (about 2.3 is just noticeable)."""
    la, lb = lab(a), lab(b)
    return sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5


def contrast(a: Linear, b: Linear) -> float:
    """WCAG contrast ratio (1 to 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


KINDS = ("normal", "protanopia", "deuteranopia", "tritanopia", "monochrome")


def seen(hex_colour: str, kind: str) -> Linear:
    """A colour as seen with normal vision or under one deficiency."""
    rgb = linear(hex_colour)
    return rgb if kind == "normal" else simulate(rgb, kind)
