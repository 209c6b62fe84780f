"""The pages: one small view per thing a player does."""
