// The one place the vendored library is imported (docs/web.md): Preact renders, htm gives it
// tagged-template markup, so the client needs no build step.
import { h, render, Fragment, createContext } from "preact";
import htm from "htm";

export { render, Fragment, createContext };
export { useState, useEffect, useRef, useMemo, useCallback, useLayoutEffect, useContext } from "preact/hooks";
export const html = htm.bind(h);
