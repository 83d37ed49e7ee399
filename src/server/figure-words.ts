/**
 * `describe_figure(figure)` in Python: a matplotlib figure's alt text from
 * what it says of itself (its titles and axis labels), else the kind of
 * chart it is where its contents leave no doubt (bars, a pie, a scatter, an
 * image): a line may be a boxplot's whisker, so lines stay "A figure". One source for every
 * runner that hands figures over (the Jupyter runner, the harness's CPython
 * sandbox), so that a figure reads the same whichever ran it.
 */
/** The alt text of a figure that says nothing of itself and whose kind is not beyond doubt. */
export const UNTITLED_FIGURE = "A figure";

/** The alt text of an untitled figure whose axes hold one kind of chart, as describe_figure writes it. */
export const FIGURE_KINDS = {
  image: "An image",
  bar: "A bar chart",
  pie: "A pie chart",
  scatter: "A scatter plot",
} as const;

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
    # Untitled: the kind of chart, where what the axes hold says it beyond doubt (a blind student hears it).
    from matplotlib.collections import PathCollection
    from matplotlib.container import BarContainer
    from matplotlib.patches import Wedge
    kinds = set()
    for axes in figure.get_axes():
        lines, collections, patches, images = axes.lines, axes.collections, axes.patches, axes.images
        if images and not (lines or collections or patches):
            kinds.add("${FIGURE_KINDS.image}")
        elif axes.containers and all(isinstance(c, BarContainer) for c in axes.containers) and not (lines or collections or images):
            kinds.add("${FIGURE_KINDS.bar}")
        elif patches and all(isinstance(p, Wedge) for p in patches) and not (lines or collections or images):
            kinds.add("${FIGURE_KINDS.pie}")
        elif collections and all(isinstance(c, PathCollection) for c in collections) and not (lines or patches or images):
            kinds.add("${FIGURE_KINDS.scatter}")
        elif lines or collections or patches or images:
            kinds.add(None)
    return kinds.pop() if len(kinds) == 1 and None not in kinds else "${UNTITLED_FIGURE}"
`;
