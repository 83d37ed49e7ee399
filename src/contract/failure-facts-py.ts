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
        return cut(message[start:end], 60) if end > start else None
    import difflib
    close = difflib.get_close_matches(name, [each for each in candidates if issubclass(type(each), str)][:2000], 1, 0.7)
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
        linked = chain[-1].__cause__ or chain[-1].__context__
        if not isinstance(linked, BaseException) or id(linked) in seen:
            break
        seen.add(id(linked))
        chain.append(linked)
    return chain

def explanation_of(kind, value, message, frame, text, frames):
    import builtins
    import ast, errno, os
    name = kind.__name__
    scope = frame.f_locals if frame is not None else {}
    node = expression(text) if text else None
    chain = chain_of(value)
    if any(type(each).__name__ in NETWORK_TYPES or (isinstance(each, OSError) and each.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ECONNREFUSED)) for each in chain):
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
            return {"kind": "recursion", "name": cut(function, 60), "count": counts[function]}
        return None
    if issubclass(kind, NameError):
        name = value.name if issubclass(type(getattr(value, "name", None)), str) else quoted_name(message)
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
    if issubclass(kind, KeyError) and value.args:
        found = {"kind": "key", "text": safe_text(value.args[0], 60)}
        if isinstance(node, ast.Subscript):
            known, container = known_value(node.value, scope)
            found["name"] = source_of(node.value, text)
            if known and issubclass(type(container), dict):
                found["count"] = dict.__len__(container)
                found["names"] = [safe_text(key, 30) for _, key in zip(range(FACT_ITEMS), dict.__iter__(container))]
        return found
    if issubclass(kind, TypeError) and isinstance(node, ast.BinOp):
        operator = OPERATORS.get(type(node.op).__name__)
        known_left, left = known_value(node.left, scope)
        known_right, right = known_value(node.right, scope)
        if operator and known_left and known_right:
            return {"kind": "operand-types", "text": operator, "names": [type(left).__name__, type(right).__name__]}
        return None
    if issubclass(kind, AttributeError) and issubclass(type(getattr(value, "name", None)), str):
        owner = type(getattr(value, "obj", None))
        found = {"kind": "attribute", "name": cut(value.name, 60), "text": cut(owner.__name__, 40)}
        import types
        # A module's names are its dict's; a class's, what the interpreter's dir() of the class lists.
        names = dict.keys(object.__getattribute__(value.obj, "__dict__")) if owner is types.ModuleType else type.__dir__(owner)
        suggestion = suggestion_in(message, value.name, list(names))
        return {**found, "suggestion": suggestion} if suggestion else found
    if kind is ValueError and value.args and isinstance(value.args[0], str):
        message = value.args[0]
        for function, prefix in (("int", "invalid literal for int() with base 10: "), ("float", "could not convert string to float: ")):
            if message.startswith(prefix):
                return {"kind": "number-text", "name": function, "text": cut(message[len(prefix) :], 60)}
        return None
    if issubclass(kind, FileNotFoundError) and isinstance(value.filename, str):
        try:
            here = sorted(each for each in os.listdir(".") if not each.startswith("."))
        except OSError:
            here = []
        return {"kind": "file-not-found", "name": cut(value.filename, 80), "names": [cut(each, 40) for each in here[:12]], "count": len(here)}
    if issubclass(kind, ModuleNotFoundError) and isinstance(value.name, str):
        import importlib.machinery
        known = ["numpy", "pandas", "matplotlib", "scipy", "sympy", "sklearn", "seaborn", "statsmodels", "networkx", "PIL"]
        installed = [each for each in known if each in sys.modules or importlib.machinery.PathFinder.find_spec(each) is not None]
        return {"kind": "module-not-found", "name": cut(value.name, 60), "names": installed}
    return None

def frame_facts(frames):
    found = []
    while frames is not None:
        code = frames.tb_frame.f_code
        module = dict.get(frames.tb_frame.f_globals, "__name__") if issubclass(type(frames.tb_frame.f_globals), dict) else None
        own = code.co_filename == PROGRAM_FILE
        found.append({
            "file": cut(code.co_filename, 200),
            "line": frames.tb_lineno or 0,
            "function": cut(code.co_name, 60),
            "own": own,
            **({} if own or not issubclass(type(module), str) else {"module": cut(module.split(".")[0], 40)}),
        })
        frames = frames.tb_next
    return found[:2] + found[2:][-FACT_FRAMES:] if len(found) > FACT_FRAMES + 2 else found

# At an exception: the program's deepest frame, its values, the carets' span, whose each frame is.
# message: the exception as the traceback said it (Python's own suggestion included).
def failure_facts(kind, value, frames, lines, stale, message):
    facts = {"type": cut(kind.__name__, 80), "message": cut(message, 300)}
    listed = frame_facts(frames)
    facts["frames"] = listed
    deepest, text = None, ""
    each = frames
    while each is not None:
        if each.tb_frame.f_code.co_filename == PROGRAM_FILE:
            deepest = each
        each = each.tb_next
    if issubclass(kind, SyntaxError) and value.filename == PROGRAM_FILE and isinstance(value.lineno, int) and not stale:
        facts["line"] = value.lineno
        if isinstance(value.offset, int) and value.offset > 0:
            facts["column"] = value.offset - 1
            end = value.end_offset if isinstance(value.end_offset, int) and value.end_offset > value.offset else value.offset + 1
            facts["endLine"], facts["endColumn"] = value.end_lineno or value.lineno, end - 1
    elif deepest is not None:
        facts["function"] = cut(deepest.tb_frame.f_code.co_name, 60)
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
