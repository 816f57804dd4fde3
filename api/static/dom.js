// The pages' one way to build an element: attributes set as given, text always as text (never
// parsed as markup), children appended in order. Loaded before every page's own script.
"use strict";

const Dom = (() => {
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  return {el};
})();
