import { DESCRIBE_VALUE_PY } from "./describe-value-py.js";

/**
 * `failure_facts(kind, value, frames, lines, stale, message)` in Python: what
 * a tutor looks at when a program raised (contract/failure.ts has its shape):
 * the deepest frame of the program's own code, its values, the span Python's
 * carets point at, whose each frame is, and an explanation's facts for the
 * errors of a first course. It runs none of the program's code and every
 * part of it is bounded. Expects `sys`, `traceback` and `PROGRAM_FILE`. No
 * backslashes or triple quotes: one runner puts this text inside a Python
 * string.
 */
export const FAILURE_FACTS_PY = `${DESCRIBE_VALUE_PY}
# Names whose values say nothing about a failure: what a program imports or defines.
def is_definition(value):
    import types
    return issubclass(type(value), (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType))

# The program's line and columns Python's carets point at (columns count characters, not bytes).
def span_of(frames, lines):
    code = frames.tb_frame.f_code
    try:
        line, end_line, column, end_column = list(code.co_positions())[frames.tb_lasti // 2]
    except (AttributeError, IndexError, ValueError):
        return {"line": frames.tb_lineno}
    if line is None:
        return {"line": frames.tb_lineno}
    span = {"line": line, "endLine": end_line or line}
    if column is not None and end_column is not None and 0 < line <= len(lines) and 0 < span["endLine"] <= len(lines):
        characters = lambda number, at: len(lines[number - 1].encode("utf-8")[:at].decode("utf-8", "replace"))
        span["column"], span["endColumn"] = characters(line, column), characters(span["endLine"], end_column)
    return span

def span_text(span, lines):
    if "column" not in span:
        return ""
    first, last = span["line"], span["endLine"]
    if first == last:
        return lines[first - 1][span["column"] : span["endColumn"]]
    return "".join([lines[first - 1][span["column"] :]] + lines[first : last - 1] + [lines[last - 1][: span["endColumn"]]])

# The names a piece of the program reads, in order, each once; strings and comments left out.
def names_in(text):
    import io, tokenize
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and token.string not in found:
                found.append(token.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return found

def values_at(frame, names):
    scope, own = frame.f_locals, frame.f_code.co_name != "<module>"
    picked = [name for name in names if name in scope]
    # In a function, its other local names too (its parameters first); at the top, only what the line reads.
    if own:
        picked += [name for name in frame.f_code.co_varnames if name in scope and name not in picked]
    values = []
    for name in picked:
        if len(values) >= FACT_VALUES:
            break
        value = scope[name]
        if name.startswith("__") or is_definition(value):
            continue
        values.append(safe_value(name, value))
    return values

# Python's own "Did you mean" (3.12 says it in the message), else the closest of the names there are.
def suggestion_in(message, name, candidates):
    start = message.find("Did you mean: '")
    if start >= 0:
        start += len("Did you mean: '")
        end = message.find("'?", start)
        return cut(printable(message[start:end]), 60) if end > start else None
    # As Python's own suggestions: short names only, and not too many of them.
    if len(name) > 40:
        return None
    import difflib
    short = [each for each in candidates if type(each) is str and len(each) <= 40][:750]
    close = difflib.get_close_matches(name, short, 1, 0.7)
    return cut(close[0], 60) if close else None

# The name a NameError's message quotes ("name 'x' is not defined", "local variable 'x' …").
def quoted_name(message):
    start = message.find("'")
    end = message.find("'", start + 1)
    return message[start + 1 : end] if 0 <= start < end else None

def expression(text):
    import ast
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None

def source_of(node, text):
    import ast
    return cut(ast.get_source_segment(text.strip(), node) or "", 60)

# The value of a name or a constant in the failing expression, where it needs no code to run.
def known_value(node, scope):
    import ast
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.Name) and node.id in scope:
        return True, scope[node.id]
    return False, None

OPERATORS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%", "Pow": "**", "MatMult": "@"}
NETWORK_TYPES = {"URLError", "ConnectionError", "NewConnectionError", "MaxRetryError", "NameResolutionError", "ConnectTimeout", "gaierror"}

def chain_of(value):
    seen, chain = set(), [value]
    while len(chain) < 16:
        linked = field(chain[-1], BaseException, "__cause__") or field(chain[-1], BaseException, "__context__")
        if not issubclass(type(linked), BaseException) or id(linked) in seen:
            break
        seen.add(id(linked))
        chain.append(linked)
    return chain

def explanation_of(kind, value, message, frame, text, frames):
    import builtins
    import ast, errno, os
    name = TYPE_NAME(kind)
    scope = frame.f_locals if frame is not None else {}
    node = expression(text) if text else None
    chain = chain_of(value)
    unreachable = (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ECONNREFUSED)
    if any(TYPE_NAME(type(each)) in NETWORK_TYPES or (issubclass(type(each), OSError) and field(each, OSError, "errno") in unreachable) for each in chain):
        return {"kind": "no-internet"}
    if (kind is EOFError and str(value) == "EOF when reading a line") or name == "StdinNotImplementedError":
        return {"kind": "no-input"}
    if issubclass(kind, MemoryError):
        return {"kind": "memory"}
    if issubclass(kind, RecursionError):
        counts = {}
        while frames is not None:
            if frames.tb_frame.f_code.co_filename == PROGRAM_FILE:
                counts[frames.tb_frame.f_code.co_name] = counts.get(frames.tb_frame.f_code.co_name, 0) + 1
            frames = frames.tb_next
        if counts:
            function = max(counts, key=counts.get)
            return {"kind": "recursion", "name": cut(printable(function), 60), "count": counts[function]}
        return None
    if issubclass(kind, NameError):
        said = field(value, NameError, "name")
        name = said if type(said) is str else quoted_name(message)
        if not name:
            return None
        found = {"kind": "unbound" if issubclass(kind, UnboundLocalError) else "name", "name": cut(name, 60)}
        candidates = [*scope, *(frame.f_globals if frame is not None else ()), *dir(builtins)]
        suggestion = None if found["kind"] == "unbound" else suggestion_in(message, name, candidates)
        return {**found, "suggestion": suggestion} if suggestion else found
    if issubclass(kind, ZeroDivisionError):
        if isinstance(node, ast.BinOp) and type(node.op).__name__ in ("Div", "FloorDiv", "Mod"):
            return {"kind": "zero-division", "text": source_of(node.right, text)}
        return {"kind": "zero-division"}
    if issubclass(kind, IndexError) and isinstance(node, ast.Subscript):
        found = {"kind": "index", "name": source_of(node.value, text), "text": source_of(node.slice, text)}
        known, container = known_value(node.value, scope)
        if known and issubclass(type(container), (list, tuple, str)):
            found["count"] = next(base for base in (list, tuple, str) if issubclass(type(container), base)).__len__(container)
        known, index = known_value(node.slice, scope)
        if known and issubclass(type(index), int) and type(index) is not bool:
            found["index"] = int.__int__(index)
        return found
    args = field(value, BaseException, "args") or ()
    if issubclass(kind, KeyError) and args:
        found = {"kind": "key", "text": safe_text(args[0], 60)}
        if isinstance(node, ast.Subscript):
            known, container = known_value(node.value, scope)
            found["name"] = source_of(node.value, text)
            pandas = sys.modules.get("pandas")
            if known and issubclass(type(container), dict):
                found["count"] = dict.__len__(container)
                found["names"] = [safe_text(key, 30) for _, key in zip(range(FACT_ITEMS), dict.__iter__(container))]
            elif known and pandas is not None and issubclass(type(container), pandas.DataFrame):
                # A table's keys are its columns.
                columns = list(pandas.DataFrame.columns.__get__(container, pandas.DataFrame))
                found["count"] = len(columns)
                found["names"] = [safe_text(each, 30) for each in columns[:FACT_ITEMS]]
        return found
    if issubclass(kind, TypeError) and isinstance(node, ast.BinOp):
        operator = OPERATORS.get(type(node.op).__name__)
        known_left, left = known_value(node.left, scope)
        known_right, right = known_value(node.right, scope)
        if operator and known_left and known_right:
            return {"kind": "operand-types", "text": operator, "names": [type_name(type(left)), type_name(type(right))]}
        return None
    attribute = field(value, AttributeError, "name") if issubclass(kind, AttributeError) else None
    if type(attribute) is str:
        target = field(value, AttributeError, "obj")
        owner = type(target)
        found = {"kind": "attribute", "name": cut(printable(attribute), 60), "text": type_name(owner)}
        import types
        # A module's names are its dict's; a class's, what the interpreter's dir() of the class lists.
        names = dict.keys(types.ModuleType.__dict__["__dict__"].__get__(target)) if owner is types.ModuleType else type.__dir__(owner)
        suggestion = suggestion_in(message, attribute, list(names))
        return {**found, "suggestion": suggestion} if suggestion else found
    if kind is ValueError and args and type(args[0]) is str:
        message = args[0]
        for function, prefix in (("int", "invalid literal for int() with base 10: "), ("float", "could not convert string to float: ")):
            if message.startswith(prefix):
                return {"kind": "number-text", "name": function, "text": cut(message[len(prefix) :], 60)}
        return None
    filename = field(value, OSError, "filename") if issubclass(kind, OSError) else None
    if issubclass(kind, FileNotFoundError) and type(filename) is str:
        try:
            here = sorted(each for each in os.listdir(".") if not each.startswith("."))
        except OSError:
            here = []
        return {"kind": "file-not-found", "name": cut(printable(filename), 80), "names": [cut(each, 40) for each in here[:12]], "count": len(here)}
    module = field(value, ImportError, "name") if issubclass(kind, ImportError) else None
    if issubclass(kind, ModuleNotFoundError) and type(module) is str:
        import importlib.machinery
        known = ["numpy", "pandas", "matplotlib", "scipy", "sympy", "sklearn", "seaborn", "statsmodels", "networkx", "PIL"]
        installed = [each for each in known if each in sys.modules or importlib.machinery.PathFinder.find_spec(each) is not None]
        return {"kind": "module-not-found", "name": cut(printable(module), 60), "names": installed}
    return None

def frame_facts(frames):
    found = []
    while frames is not None:
        code = frames.tb_frame.f_code
        module = dict.get(frames.tb_frame.f_globals, "__name__") if issubclass(type(frames.tb_frame.f_globals), dict) else None
        own = code.co_filename == PROGRAM_FILE
        found.append({
            "file": cut(printable(code.co_filename), 200),
            "line": frames.tb_lineno or 0,
            "function": cut(printable(code.co_name), 60),
            "own": own,
            **({} if own or type(module) is not str else {"module": cut(printable(module.split(".")[0]), 40)}),
        })
        frames = frames.tb_next
    return found[:2] + found[2:][-FACT_FRAMES:] if len(found) > FACT_FRAMES + 2 else found

# At an exception: the program's deepest frame, its values, the carets' span, whose each frame is.
# message: the exception as the traceback said it (Python's own suggestion included).
def failure_facts(kind, value, frames, lines, stale, message):
    facts = {"type": type_name(kind, 80), "message": cut(message, 300)}
    listed = frame_facts(frames)
    facts["frames"] = listed
    deepest, text = None, ""
    each = frames
    while each is not None:
        if each.tb_frame.f_code.co_filename == PROGRAM_FILE:
            deepest = each
        each = each.tb_next
    syntax = {key: field(value, SyntaxError, key) for key in ("filename", "lineno", "offset", "end_lineno", "end_offset")} if issubclass(kind, SyntaxError) else {}
    whole = lambda key: syntax.get(key) if type(syntax.get(key)) is int else None
    if syntax.get("filename") == PROGRAM_FILE and whole("lineno") and not stale:
        facts["line"] = whole("lineno")
        if whole("offset") and whole("offset") > 0:
            facts["column"] = whole("offset") - 1
            end = whole("end_offset") if whole("end_offset") and whole("end_offset") > whole("offset") else whole("offset") + 1
            facts["endLine"], facts["endColumn"] = whole("end_lineno") or whole("lineno"), end - 1
    elif deepest is not None:
        facts["function"] = cut(printable(deepest.tb_frame.f_code.co_name), 60)
        if not stale:
            facts.update(span_of(deepest, lines))
            text = span_text(facts, lines)
        # What the carets point at first, then the rest of the failing line.
        line, end = facts.get("line", 0), facts.get("endLine", facts.get("line", 0))
        whole = "".join(lines[line - 1 : end]) if 0 < line <= end <= len(lines) else ""
        names = names_in(text[:2000])
        names += [name for name in names_in(whole[:2000]) if name not in names]
        facts["values"] = values_at(deepest.tb_frame, names)
    try:
        explanation = explanation_of(kind, value, message, deepest.tb_frame if deepest is not None else None, text, frames)
    except Exception:
        explanation = None
    if explanation:
        facts["explanation"] = explanation
    return facts
`;
