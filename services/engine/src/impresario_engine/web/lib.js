// The one place the vendored library is imported (docs/web.md): Preact renders, htm gives it
// tagged-template markup, so the client needs no build step.
import { h, render, Fragment } from "preact";
import htm from "htm";

export { render, Fragment };
export { useState, useEffect, useRef, useMemo, useCallback, useLayoutEffect } from "preact/hooks";
export const html = htm.bind(h);
