import type { DeskError } from '../state.js';

/** Every error the server answered (its JSON `error.message`), until dismissed. */
export function ErrorBanner({ errors, onDismiss }: { errors: DeskError[]; onDismiss: (id: number) => void }) {
  if (errors.length === 0) return null;
  return (
    <div className="errors" role="alert">
      {errors.map((e) => (
        <div key={e.id} className="error">
          <span>{e.message}</span>
          <button type="button" onClick={() => onDismiss(e.id)} aria-label="Dismiss">
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
