"""discord.py cogs: thin adapters from interactions to the table service."""
