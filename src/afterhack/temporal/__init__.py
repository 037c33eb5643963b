"""Time as readers name it: as_of moments, valid time read from statements, and the step a search
at a time applies.
"""
