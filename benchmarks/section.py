"""What each benchmark section hands back: its part of docs/benchmarks.md."""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks.goals import Goal


@dataclass
class Section:
    name: str
    """build | serving | http: the argument that runs it alone, and its marker in the file."""
    title: str
    command: str
    lines: list[str] = field(default_factory=list)
    load: tuple[float, float] | None = None
    """The 1-minute load average when the section started and when it ended."""
    revision: str | None = None
    """The capenv commit measured (sections of one file may come from runs on different commits)."""
    goals: list[Goal] = field(default_factory=list)
    """Its lines of the goals table at the top of the file (kept in its part as comments)."""

    def markdown(self) -> str:
        run = f"Reproduce: `{self.command}`."
        if self.revision is not None:
            run += f" capenv commit {self.revision}."
        if self.load is not None:
            run += f" Load average (1 min) when it started → ended: {self.load[0]:.2f} → {self.load[1]:.2f}."
        kept = [goal.comment() for goal in self.goals]
        return "\n".join([f"## {self.title}", "", run, "", *self.lines, *([""] + kept if kept else [])]).rstrip() + "\n"
