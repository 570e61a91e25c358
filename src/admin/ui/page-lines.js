// The page's two lines of text: the shown tenant's state, and the outcome of the last action.

/** The shown tenant's state: live, flagged fresh, or a stream problem. */
export function status(text, kind = '') {
  show(document.getElementById('status'), text, kind)
}

/** The outcome of the last action or read. */
export function notice(text, kind = '') {
  show(document.getElementById('notice'), text, kind)
}

function show(line, text, kind) {
  line.textContent = text
  line.className = kind
}
