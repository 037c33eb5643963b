"""What a write records beside its change, made without I/O before the write: new ids, the
time, audit events, conflict rows and settles, flags. The store never makes any of them: it
writes what it is given (docs/design.md, "Where things live")."""
