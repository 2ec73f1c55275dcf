"use client";

import { useEffect, useRef } from "react";

interface ScalarInstance {
  destroy: () => void;
}

declare global {
  interface Window {
    Scalar?: { createApiReference: (element: Element, configuration: object) => ScalarInstance };
  }
}

/**
 * Mounts Scalar's API reference into this element once its bundle has loaded. The server for try-it is this
 * page's own origin (the document's server is the relative `/api/v1`).
 */
export function ScalarReference({ configuration, script }: { configuration: object; script: string }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let instance: ScalarInstance | undefined;
    let cancelled = false;
    const mount = () => {
      if (cancelled || !container.current || !window.Scalar) return;
      instance = window.Scalar.createApiReference(container.current, { ...configuration, baseServerURL: window.location.origin });
    };
    if (window.Scalar) mount();
    else {
      let tag = document.querySelector<HTMLScriptElement>(`script[src="${script}"]`);
      if (!tag) {
        tag = document.createElement("script");
        tag.src = script;
        document.head.appendChild(tag);
      }
      tag.addEventListener("load", mount, { once: true });
    }
    return () => {
      cancelled = true;
      instance?.destroy();
    };
  }, [configuration, script]);

  return <div ref={container} id="scalar-reference" />;
}
