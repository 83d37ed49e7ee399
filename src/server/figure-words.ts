/**
 * `describe_figure(figure)` in Python: a matplotlib figure's alt text from
 * what it says of itself (its titles and axis labels), else the kind of
 * chart it is. One source for every
 * runner that hands figures over (the Jupyter runner, the harness's CPython
 * sandbox), so that a figure reads the same whichever ran it.
 */
export const DESCRIBE_FIGURE_PY = `
def describe_figure(figure):
    """Alt text from what the figure says about itself: titles and axis labels, else its kind of chart."""
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
    if parts:
        return "; ".join(parts)
    # Untitled: what kind of chart it is, so the alt text (and the Enlarge button's name) says more than "A figure".
    kinds = []
    for axes in figure.get_axes():
        kind = (
            "image" if axes.images
            else "line chart" if axes.lines
            else "scatter plot" if axes.collections
            else "bar chart" if axes.patches
            else None
        )
        if kind and kind not in kinds:
            kinds.append(kind)
    if len(kinds) == 1:
        return ("An " if kinds[0] == "image" else "A ") + kinds[0]
    return "A figure"
`;
