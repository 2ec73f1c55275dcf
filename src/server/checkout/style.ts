/** The checkout page's one stylesheet (inline: the CSP allows inline styles and nothing is fetched). */
export const STYLE = `
:root{--bg:#f7f7f8;--surface:#fff;--text:#16181d;--muted:#555b66;--border:#d9dce1;--accent:#3b4fd8;--danger:#b42318;--success:#067647;--warning-bg:#fff3cd;--focus:#1d4ed8;--radius:8px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--text);background:var(--bg)}
*{box-sizing:border-box}body{margin:0;line-height:1.5}a{color:var(--accent)}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
.checkout{max-width:34rem;margin:0 auto;padding:1rem 1rem 3rem;overflow-wrap:anywhere}
.top{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;flex-wrap:wrap}
.merchant{color:var(--muted);margin:0;font-weight:600}
.languages ul{display:flex;gap:.25rem;list-style:none;margin:0;padding:0;flex-wrap:wrap}.languages a{display:inline-block;padding:.5rem .5rem;min-height:44px;min-width:44px;text-align:center}.languages a[aria-current]{font-weight:700;color:var(--text);text-decoration:none}
h1{font-size:1.6rem;margin:.25rem 0 .5rem}h2{font-size:1rem;margin:0 0 .5rem}
.test-mode{background:var(--warning-bg);border:1px solid #b7791f;color:#5c3d00;border-radius:var(--radius);padding:.5rem .75rem;margin:0 0 1rem;font-weight:600}
.box{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:1rem;margin:1rem 0}
.box p{margin:.25rem 0}.note p{white-space:pre-line}
.checkout-paid .status-box{border-color:var(--success)}.checkout-paid .status-box strong{color:var(--success)}
.checkout-expired .status-box strong,.checkout-void .status-box strong{color:var(--danger)}
dl{margin:0}dl.amounts div{display:flex;justify-content:space-between;align-items:center;gap:.5rem 1rem;padding:.3rem 0;flex-wrap:wrap}
dt{color:var(--muted)}dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.fields div{padding:.4rem 0;border-bottom:1px solid var(--border)}.fields div:last-child{border-bottom:0}
.fields dd,.copyable{display:flex;align-items:center;justify-content:space-between;gap:.5rem;text-align:left;min-width:0}
.value{user-select:all;overflow-wrap:anywhere;flex:1;min-width:0}
.method{border:1px solid var(--border);border-radius:var(--radius);margin:.5rem 0}
.method summary{cursor:pointer;padding:.75rem 1rem;min-height:44px;font-weight:600}
.method[open] summary{border-bottom:1px solid var(--border)}.method-body{padding:.5rem 1rem 1rem}
.warning{background:var(--warning-bg);border-radius:var(--radius);padding:.5rem .75rem;color:#5c3d00}
.qr{margin:.75rem 0 0;text-align:center}.qr svg{width:100%;max-width:220px;height:auto;display:block;margin:0 auto}.qr figcaption{color:var(--muted);font-size:.9rem}
button.copy{flex:none;font:inherit;font-size:.85rem;padding:.4rem .75rem;min-height:44px;min-width:44px;border:1px solid var(--border);border-radius:var(--radius);background:var(--surface);color:var(--text);cursor:pointer}
button.copy[data-copied]{border-color:var(--success);color:var(--success)}
.button,.return{display:inline-block;padding:.75rem 1rem;min-height:44px;border-radius:var(--radius)}
.button{background:var(--accent);color:#fff;text-decoration:none;font-weight:600;margin-top:.5rem}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.claim-form label{display:block;font-weight:600;margin:.75rem 0 .25rem}.claim-form .hint{color:var(--muted);font-size:.9rem;margin:0 0 .25rem}
.claim-form input{font:inherit;width:100%;padding:.6rem .75rem;min-height:44px;border:1px solid var(--border);border-radius:var(--radius)}
.claim-form button{font:inherit;font-weight:600;margin-top:1rem;padding:.75rem 1rem;min-height:44px;width:100%;border:0;border-radius:var(--radius);background:var(--accent);color:#fff;cursor:pointer}
.error{color:var(--danger);font-weight:600}
@media (min-width:48rem){.checkout{padding-top:2rem}}
`;
