"""Why an assertion could not be evaluated. Always becomes an ``error`` result, never a pass."""


class NotEvaluable(Exception):
    pass
