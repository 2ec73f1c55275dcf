/** In test mode, in place of the live endpoint's form and secret: where test events go instead. */
export function LiveSettingsNote() {
  return (
    <section className="card" aria-labelledby="live-settings-heading">
      <h2 id="live-settings-heading">Test endpoints</h2>
      <p>
        Test events go to test endpoints only: add one under <strong>Endpoints</strong> below, with its own URL and signing secret. The webhook URL
        and secret of your profile are live settings: switch test mode off to change them.
      </p>
    </section>
  );
}
