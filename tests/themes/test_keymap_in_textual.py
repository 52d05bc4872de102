"""Key strings accepted by the settings reader really drive Textual's keymap (checked in a real app)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from reviewer.store.settings.config import load_settings


class Recorder(App[None]):
    """Two labelling bindings with ids, as the real app declares them."""

    BINDINGS = [
        Binding("s", "record('specification')", "Specification", id="label-specification"),
        Binding("c", "record('capability')", "Capability", id="label-capability"),
        Binding("question_mark", "record('help')", "Help", id="help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def action_record(self, what: str) -> None:
        self.seen.append(what)


def pressed(keymap: dict[str, str], keys: list[str]) -> list[str]:
    async def scenario() -> list[str]:
        app = Recorder()
        async with app.run_test() as pilot:
            app.set_keymap(keymap)
            await pilot.press(*keys)
            await pilot.pause()
        return app.seen

    return asyncio.run(scenario())


def test_remapped_specification_key_labels_and_the_old_key_no_longer_does(tmp_path: Path) -> None:
    path = tmp_path / "xdg-config" / "reviewer" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[keys]\nlabel-specification = "a"\nlabel-capability = "z, ctrl+k"\nhelp = "h,?"\nbogus = "x"\n')
    ids = {b.id: b.key for b in Recorder.BINDINGS if isinstance(b, Binding) and b.id}
    settings, warnings = load_settings(known_binding_ids=ids)
    assert len(warnings) == 1 and "'bogus' is not a binding id" in warnings[0]
    assert settings.keys == {"label-specification": "a", "label-capability": "z,ctrl+k", "help": "h,?"}
    seen = pressed(dict(settings.keys), ["a", "s", "z", "c", "ctrl+k", "h", "question_mark"])
    assert seen == ["specification", "capability", "capability", "help", "help"]
