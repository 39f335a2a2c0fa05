"""A click group whose commands are imported when they are used: ``netcoll analyze`` does not
import numpy, matplotlib or the simulators' modules. The registration in ``cli/__init__.py``
names each command's module and function, so that file stays the map of the CLI."""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """``add_lazy(name, module, attr)`` registers ``netcoll.cli.<module>.<attr>`` as ``name``;
    it is imported on first use (running it, its help, or the group's help)."""

    def __init__(self, *args, **kwargs):
        self._lazy: dict[str, tuple[str, str]] = {}
        super().__init__(*args, **kwargs)

    def add_lazy(self, name: str, module: str, attr: str) -> None:
        self._lazy[name] = (module, attr)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        name = name or cmd.name
        self._loaded[name] = cmd

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self._loaded, *self._lazy})

    def get_command(self, ctx, name: str) -> click.Command | None:
        if name not in self._loaded and name in self._lazy:
            module, attr = self._lazy[name]
            cmd = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
            self._loaded[name] = cmd
        return self._loaded.get(name)

    @property
    def commands(self) -> dict[str, click.Command]:
        """Every command, imported (for the docs and the tests that walk the CLI)."""
        for name in self._lazy:
            self.get_command(None, name)
        return self._loaded

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._loaded = dict(value)
