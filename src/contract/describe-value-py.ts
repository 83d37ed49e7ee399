/**
 * `value_fact(name, value)` in Python: a value at a failing line as Python
 * would write it, cut short, with its type and size. Made by the
 * interpreter's own types (`int.__repr__`, `list.__len__`, …), never by a
 * `__repr__`, property or `__len__` the program defined, so that a hostile
 * value cannot stall or flood a run's answer. Bounded: a few dozen
 * characters, a few items, two levels deep. No backslashes or triple
 * quotes: one runner puts this text inside a Python string.
 */
export const DESCRIBE_VALUE_PY = `FACT_VALUES, FACT_CHARS, FACT_FRAMES, FACT_ITEMS = 8, 80, 40, 8
CONTAINERS = (list, tuple, dict, set, frozenset)

# What the interpreter itself says of a class or an exception: never a property, metaclass or __getattr__ the
# program defined, which could run long, raise or say anything.
TYPE_NAME = type.__dict__["__name__"].__get__

def printable(text):
    text = str.__str__(text)
    return text if text.isprintable() else repr(text)[1:-1]

def type_name(kind, room=40):
    return cut(printable(TYPE_NAME(kind)), room)

def field(value, owner, name):
    # An exception's own field, as the interpreter keeps it (owner: the class that defines it).
    try:
        return owner.__dict__[name].__get__(value)
    except Exception:
        return None

def cut(text, room):
    return text if len(text) <= room else text[: max(room - 1, 1)] + "…"

# How Python would write a value, cut to room, in the interpreter's own terms: never a method the
# program defined. Nested past two levels, as reprlib does: [...].
def describe_value(value, room=FACT_CHARS, depth=0):
    kind = type(value)
    numpy, pandas = sys.modules.get("numpy"), sys.modules.get("pandas")
    if value is None or kind is bool:
        return repr(value)
    if issubclass(kind, int):
        return int.__repr__(value) if int.bit_length(value) <= 128 else "…"
    if issubclass(kind, float):
        return float.__repr__(value)
    if issubclass(kind, complex):
        return complex.__repr__(value)
    if issubclass(kind, str):
        return cut(repr(str.__getitem__(value, slice(0, room))), room)
    if issubclass(kind, bytes):
        return cut(repr(bytes.__getitem__(value, slice(0, room))), room)
    if issubclass(kind, CONTAINERS):
        base = next(each for each in CONTAINERS if issubclass(kind, each))
        length = base.__len__(value)
        brackets = "[]" if base is list else "()" if base is tuple else "{}"
        if (base is set or base is frozenset) and not length:
            return base.__name__ + "()"
        if depth >= 2 and length:
            return brackets[0] + "..." + brackets[1]
        if base is dict:
            parts = [describe_value(pair[0], 24, depth + 1) + ": " + describe_value(pair[1], 24, depth + 1)
                     for _, pair in zip(range(FACT_ITEMS), dict.items(value))]
        else:
            parts = [describe_value(item, 24, depth + 1) for _, item in zip(range(FACT_ITEMS), base.__iter__(value))]
        body = ", ".join(parts) + ("," if base is tuple and length == 1 else "") + (", …" if length > len(parts) else "")
        return cut(brackets[0] + body + brackets[1], room)
    if issubclass(kind, range):
        return range.__repr__(value)
    if numpy is not None and issubclass(kind, numpy.ndarray):
        shape, dtype = numpy.ndarray.shape.__get__(value), numpy.ndarray.dtype.__get__(value)
        if len(shape) == 1 and shape[0] <= FACT_ITEMS and dtype.kind in "biuf":
            return "array(" + describe_value(numpy.ndarray.tolist(value), room - 7, depth) + ")"
        return "array(…)"
    if numpy is not None and issubclass(kind, numpy.generic):
        return describe_value(numpy.generic.item(value), room, depth)
    if pandas is not None and issubclass(kind, (pandas.DataFrame, pandas.Series)):
        return type_name(kind) + "(…)"
    return "<" + type_name(kind) + " object>"

# A name's value at the failing line: as Python would write it (cut), its type, and its size where
# the written value may not show it all.
def value_fact(name, value):
    kind = type(value)
    numpy, pandas = sys.modules.get("numpy"), sys.modules.get("pandas")
    fact = {"name": cut(name, 40), "value": describe_value(value), "type": type_name(kind)}
    if issubclass(kind, (str, bytes) + CONTAINERS):
        base = next(each for each in (str, bytes) + CONTAINERS if issubclass(kind, each))
        fact["length"] = base.__len__(value)
    elif issubclass(kind, int) and kind is not bool and int.bit_length(value) > 128:
        fact["length"] = int(int.bit_length(value) * 0.30103) + 1
    elif numpy is not None and issubclass(kind, numpy.ndarray):
        fact["shape"] = list(numpy.ndarray.shape.__get__(value))[:8]
        fact["type"] = "ndarray[" + cut(str(numpy.ndarray.dtype.__get__(value)), 20) + "]"
    elif pandas is not None and issubclass(kind, pandas.DataFrame):
        fact["shape"] = list(pandas.DataFrame.shape.fget(value))
        columns = [each for each in list(pandas.DataFrame.columns.__get__(value, pandas.DataFrame)[:6]) if type(each) is str]
        fact["value"] = cut("DataFrame(columns=" + describe_value(columns, 60) + ")", FACT_CHARS)
    elif pandas is not None and issubclass(kind, pandas.Series):
        fact["length"] = pandas.Series.__len__(value)
    return fact

def safe_value(name, value):
    try:
        return value_fact(name, value)
    except BaseException:
        return {"name": cut(name, 40), "value": "<" + type_name(type(value)) + " object>", "type": type_name(type(value))}

def safe_text(value, room):
    try:
        return describe_value(value, room)
    except BaseException:
        return "<" + type_name(type(value)) + " object>"
`;
