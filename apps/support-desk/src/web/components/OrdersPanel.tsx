import { useEffect } from 'react';
import type { OrderSummary } from '../../shared/api.js';

/** Recent orders; rows that arrived or changed live are highlighted for a few seconds. */
export function OrdersPanel({
  orders,
  fresh,
  onSeen,
}: {
  orders: OrderSummary[];
  fresh: number[];
  onSeen: (id: number) => void;
}) {
  useEffect(() => {
    const timers = fresh.map((id) => setTimeout(() => onSeen(id), 4000));
    return () => timers.forEach(clearTimeout);
  }, [fresh, onSeen]);
  return (
    <div className="panel">
      <h2>Recent orders</h2>
      <table className="orders" data-testid="orders">
        <thead>
          <tr>
            <th>Order</th>
            <th>Customer</th>
            <th>Status</th>
            <th className="num">Total</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} data-order={o.number} className={fresh.includes(o.id) ? 'fresh' : ''}>
              <td>#{o.number}</td>
              <td>{o.customerName}</td>
              <td>
                <span className={`status status-${o.status}`}>{o.status}</span>
              </td>
              <td className="num">
                {o.total} {o.currency}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
