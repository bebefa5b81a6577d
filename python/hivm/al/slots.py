"""``sync_event_slots`` entries and their ``#hivm.sync_event_slot`` text.

Three spellings are accepted, as triton-ascend accepts them: ``SyncEventSlot(...)``,
a tuple ``(set_pipe, wait_pipe[, sync[, event]])`` and ``('internal',)``. A hint left out
means WAIT here, while the MLIR keyword left out means ``internal``: the printed text
always spells the hint out unless it is an unpinned ``internal``.
"""

from .enums import EVENT_ID, PIPE, SYNC_HINT


class SyncEventSlot:
    """One synchronisation slot of a ``custom_macro`` op."""

    def __init__(self, set_pipe=None, wait_pipe=None, sync=SYNC_HINT.WAIT, event=None):
        self.set_pipe = set_pipe
        self.wait_pipe = wait_pipe
        self.sync = sync
        self.event = event

    def __repr__(self):
        return (
            f"SyncEventSlot(set_pipe={self.set_pipe}, wait_pipe={self.wait_pipe}, "
            f"sync={self.sync}, event={self.event})"
        )


def _hint(sync):
    if isinstance(sync, SYNC_HINT):
        return sync
    if isinstance(sync, str):
        return SYNC_HINT[sync.upper()]
    return SYNC_HINT(sync)


def _event(event):
    if event is None or isinstance(event, EVENT_ID):
        return event
    if isinstance(event, str):
        return EVENT_ID[event]
    return EVENT_ID(event)


def _pipe_text(pipe):
    if not isinstance(pipe, PIPE):
        raise TypeError(f"sync_event_slots: {pipe!r} is not an al.PIPE")
    return f"#hivm.pipe<{pipe.value}>"


def normalise(entry):
    """(set_pipe, wait_pipe, SYNC_HINT, EVENT_ID or None) of one entry, with
    triton-ascend's messages for entries it rejects."""
    if isinstance(entry, SyncEventSlot):
        return entry.set_pipe, entry.wait_pipe, _hint(entry.sync), _event(entry.event)
    if isinstance(entry, tuple):
        if len(entry) == 1 and entry[0] == "internal":
            return None, None, SYNC_HINT.INTERNAL, None
        assert len(entry) >= 2, "invalid sync_event_slots entry"
        set_pipe, wait_pipe = entry[0], entry[1]
        sync = _hint(entry[2]) if len(entry) > 2 else SYNC_HINT.WAIT
        event = _event(entry[3]) if len(entry) > 3 else None
        return set_pipe, wait_pipe, sync, event
    raise AssertionError("sync_event_slots entries must be SyncEventSlot or tuple")


def slot_text(entry) -> str:
    """The ``#hivm.sync_event_slot<...>`` attribute of one entry."""
    set_pipe, wait_pipe, sync, event = normalise(entry)
    parts = []
    if set_pipe is not None or wait_pipe is not None:
        parts += [_pipe_text(set_pipe), _pipe_text(wait_pipe)]
    if sync is not SYNC_HINT.INTERNAL or event is not None or not parts:
        parts.append(sync.value)
    if event is not None:
        parts.append(f"<{event.value}>")
    return f"#hivm.sync_event_slot<{', '.join(parts)}>"


def slots_text(slots) -> str:
    """The ``sync_event_slots`` array of a whole list (a tuple counts as a list, so a
    single slot must be written ``[(...)]``, as in triton-ascend)."""
    return "[" + ", ".join(slot_text(s) for s in list(slots)) + "]"
