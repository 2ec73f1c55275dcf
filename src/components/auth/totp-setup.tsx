"use client";

import { CopyButton } from "@/components/ui/copy-button";

/** The QR code to scan and the secret to type instead, while setting up an authenticator app. */
export function TotpSetupDetails({ setup }: { setup: { secret: string; qrSvg: string } }) {
  return (
    <div className="totp-setup">
      <p>Scan this code with your authenticator app, or type the key below into it.</p>
      {/* The SVG is made on the server by the qrcode library from the otpauth:// URI: no user input inside. */}
      <div className="totp-qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
      <p>
        Key: <code data-testid="totp-secret">{setup.secret}</code> <CopyButton value={setup.secret} label="Copy key" />
      </p>
    </div>
  );
}

/** Ten one-time recovery codes, shown this once. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="alert alert-warning" role="status">
      <p>Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.</p>
      <ul className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyButton value={codes.join("\n")} label="Copy all" />
    </div>
  );
}
