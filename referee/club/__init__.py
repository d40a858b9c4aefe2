"""The club's engine (issue #24): ratings, pairings, standings and records over finished
matches, as pure functions. Like the rest of ``referee`` it imports no UI and no database:
the club server and the director's screen call it with what they read from storage.
"""
