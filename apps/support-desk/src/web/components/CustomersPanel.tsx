import type { CustomerSummary } from '../../shared/api.js';

export function CustomersPanel({ customers }: { customers: CustomerSummary[] }) {
  return (
    <div className="panel">
      <h2>Customers</h2>
      <ul className="customers" data-testid="customers">
        {customers.map((c) => (
          <li key={c.id} data-customer={c.id}>
            <span>{c.name}</span>
            <span className="muted small">{c.city}</span>
            {c.unhappy && <span className="tag">unhappy</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
