"""What a document means beyond its text: the one model of references (which field names which kind
of object, compiled from the model's `Ref` / `Defines` markers). Indexes and shapes join it here when
the lead moves those modules."""
