import { FAILURE_FACTS_PY } from "./failure-facts-py.js";

import { PROGRAM_FILE } from "./program-file.js";

export { PROGRAM_FILE };

/**
 * `run_program(source, namespace, facts=None)` in Python: runs a student's
 * program as Python's own top level would, and returns its exit status. At an
 * uncaught exception, `facts` (a dict) gets what failed and where
 * (contract/failure.ts). One source for
 * every runner (the Jupyter runner cell, the harness's CPython sandbox, the
 * browser's Pyodide worker), so that an exit, a traceback and `input()` read
 * the same whichever ran it. Expects `sys` and `traceback` imported.
 */
export const RUN_PROGRAM_PY = `
PROGRAM_FILE = "${PROGRAM_FILE}"
${FAILURE_FACTS_PY}
# Whether every frame of the program in a traceback (and in the exceptions it chains or groups) runs code
# compiled from this source.
def frames_of(program, error, frames):
    own, pending = set(), [program]
    while pending:
        each = pending.pop()
        own.add(each)
        pending.extend(const for const in each.co_consts if hasattr(const, "co_consts"))
    seen, errors = set(), [(error, frames)]
    while errors:
        error, frames = errors.pop()
        if id(error) in seen:
            continue
        seen.add(id(error))
        while frames is not None:
            if frames.tb_frame.f_code.co_filename == "${PROGRAM_FILE}" and frames.tb_frame.f_code not in own:
                return False
            frames = frames.tb_next
        for linked in (error.__cause__, error.__context__, *getattr(error, "exceptions", ())):
            if isinstance(linked, BaseException):
                errors.append((linked, linked.__traceback__))
    return True

def run_program(source, namespace, facts=None):
    import linecache
    # Tracebacks and warnings quote the program's lines, as they do for a file. Split where the compiler
    # counts lines (LF, CR LF, CR), not where splitlines() also does (a form feed, U+2028, …). No
    # backslashes here: one runner puts this text inside a Python string.
    lf, cr = chr(10), chr(13)
    lines = [line + lf for line in source.replace(cr + lf, lf).replace(cr, lf).split(lf)]
    linecache.cache["${PROGRAM_FILE}"] = (len(source), None, lines, "${PROGRAM_FILE}")
    program = None
    try:
        program = compile(source, "${PROGRAM_FILE}", "exec")
        exec(program, namespace)
        return 0
    except SystemExit as exit:
        code = exit.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        try:
            print(code, file=sys.stderr)
        except BaseException:
            print("The program's exit message could not be shown.", file=sys.stderr)
        return 1
    except BaseException:
        kind, value, frames = sys.exc_info()
        # The program's own frames only: not this runner's.
        while frames is not None and frames.tb_frame.f_code.co_filename != "${PROGRAM_FILE}":
            frames = frames.tb_next
        # Nothing the program defined may end this runner early (a metaclass's property, an exception's
        # __str__ that raises SystemExit): what fails here is said, and the program's status stands.
        # A function an earlier run defined (a kernel keeps them) has its lines in that run's source, not
        # this one: quote no line rather than a wrong one.
        try:
            stale = program is not None and not frames_of(program, value, frames)
        except BaseException:
            stale = False
        if stale:
            linecache.cache.pop("${PROGRAM_FILE}", None)
        # Made once: the exception's own str() runs once, for the traceback and the facts alike.
        try:
            shown = traceback.TracebackException(type(value), value, frames, compact=True)
            print("".join(shown.format()), end="", file=sys.stderr)
        except BaseException:
            shown = None
            print(type_name(kind, 80) + ": the program's exception could not be shown", file=sys.stderr)
        if facts is not None and shown is not None:
            try:
                said = [line for line in shown.format_exception_only() if not line.startswith(" ")]
                message = said[0].rstrip().split(": ", 1)[1] if said and ": " in said[0] else ""
                facts.update(failure_facts(kind, value, frames, lines, stale, message))
            except BaseException:
                facts.clear()
        return 1
`;
