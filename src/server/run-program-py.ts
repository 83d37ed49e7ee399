/**
 * `run_program(source, namespace)` in Python: runs a student's program as
 * Python's own top level would, and returns its exit status. One source for
 * every runner that runs CPython (the Jupyter runner cell, the harness's
 * CPython sandbox), so that an exit, a traceback and `input()` read the same
 * whichever ran it. Expects `sys` and `traceback` imported.
 */
export const RUN_PROGRAM_PY = `
def run_program(source, namespace):
    try:
        exec(compile(source, "<exec>", "exec"), namespace)
        return 0
    except SystemExit as exit:
        code = exit.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    except BaseException:
        kind, value, frames = sys.exc_info()
        # The program's own frames only: not this runner's.
        while frames is not None and frames.tb_frame.f_code.co_filename != "<exec>":
            frames = frames.tb_next
        traceback.print_exception(kind, value, frames)
        # No one types into a sandbox: a closed stdin (EOFError), or a kernel that allows no input.
        if (kind is EOFError and str(value) == "EOF when reading a line") or kind.__name__ == "StdinNotImplementedError":
            print("input() cannot read typed input here: put the values in the program.", file=sys.stderr)
        return 1
`;
