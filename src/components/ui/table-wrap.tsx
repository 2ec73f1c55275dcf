"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * A table that scrolls sideways inside its own box on wide screens (focusable, so keyboard users can scroll
 * it too) and becomes one card per row on phones (dashboard.css, `.table-wrap` under 40rem). A card names
 * each value by its column: every cell gets its header's text as `data-label`, kept up to date as rows come
 * and go, so each table needs no labels of its own.
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = wrap.current;
    if (!element) return;
    labelCells(element);
    const observer = new MutationObserver(() => labelCells(element));
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={wrap} className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

function labelCells(element: HTMLElement) {
  for (const table of element.querySelectorAll("table")) {
    const headers = [...table.querySelectorAll("thead th")].map((th) => th.textContent?.trim() ?? "");
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, index) => {
        const text = headers[index] ?? "";
        if (cell.getAttribute("data-label") !== text) cell.setAttribute("data-label", text);
      });
    }
  }
}
