/**
 * `describe_figure(figure)` in Python: a matplotlib figure's alt text from
 * what it says of itself (its titles and axis labels). One source for every
 * runner that hands figures over (the Jupyter runner, the harness's CPython
 * sandbox), so that a figure reads the same whichever ran it.
 */
export const DESCRIBE_FIGURE_PY = `
def describe_figure(figure):
    """Alt text from what the figure says about itself: titles and axis labels."""
    parts = []
    if figure._suptitle is not None and figure._suptitle.get_text():
        parts.append(figure._suptitle.get_text())
    for axes in figure.get_axes():
        labels = [axes.get_title()]
        if axes.get_xlabel():
            labels.append(f"x: {axes.get_xlabel()}")
        if axes.get_ylabel():
            labels.append(f"y: {axes.get_ylabel()}")
        text = ", ".join(label for label in labels if label)
        if text:
            parts.append(text)
    return "; ".join(parts) or "A figure"
`;
