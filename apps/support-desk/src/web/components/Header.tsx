import type { DeskConfig } from '../../shared/api.js';

export function Header({
  config,
  connection,
  subscribed,
}: {
  config: DeskConfig | null;
  connection: string;
  subscribed: boolean;
}) {
  const live = subscribed ? 'live' : connection === 'connected' ? 'subscribing' : connection;
  return (
    <header className="header">
      <div>
        <h1>Support desk</h1>
        {config && (
          <p className="services">
            store: {config.services.store} · transcription: {config.services.transcription} · realtime:{' '}
            {config.services.realtime}
          </p>
        )}
      </div>
      <span className={`badge connection ${subscribed ? 'ok' : 'wait'}`} data-testid="connection">
        {live}
      </span>
    </header>
  );
}
