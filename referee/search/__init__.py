"""The engine's thinking, over the games' hooks alone (games/base.py): no record, no file, no
clock but the one it is given to stop by.

  mcts.py     Monte Carlo tree search for any game, bounded in time and in memory, carried on
              from move to move
  tree.py     its values: a node, what a search found, the settings (per game, per algorithm)
  grave.py    all-moves-as-first statistics and GRAVE's choice by them
  proof.py    proven wins and losses backed up the tree (MCTS-Solver)
  reading.py  the move a tree says, the moves tried most, their lines
  solver.py   the crab game's exact solver against the clock, and the hunt for a winnable deal

May import: referee.games, referee.errors. The commands that use it (hint, bot seats, UGI,
matches) live above: referee.play (bots) and referee.engine.
"""
