"""The event store and the commands that write to it: the one place IO meets the domain."""
