import { type DragEvent, useState } from 'react';
import type { CallView, DeskConfig, OrderSummary } from '../../shared/api.js';
import { api, uploadRecording } from '../api.js';

interface Props {
  config: DeskConfig | null;
  orders: OrderSummary[];
  onStarted: (call: CallView) => void;
  onError: (error: unknown) => void;
}

/** Drop or pick a recording (with an upload progress bar), or have the server synthesise a sample call. */
export function CallIntake({ config, orders, onStarted, onError }: Props) {
  const [dragging, setDragging] = useState(false);
  const [upload, setUpload] = useState<{ name: string; progress: number; done: boolean } | null>(null);
  const [orderId, setOrderId] = useState('');
  const [mood, setMood] = useState<'unhappy' | 'happy'>('unhappy');
  const [generating, setGenerating] = useState(false);

  const send = (file: File | undefined) => {
    if (!file) return;
    setUpload({ name: file.name, progress: 0, done: false });
    uploadRecording(file, (progress) => setUpload({ name: file.name, progress, done: false }))
      .then((call) => {
        setUpload({ name: file.name, progress: 1, done: true });
        onStarted(call);
      })
      .catch((error) => {
        setUpload(null);
        onError(error);
      });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    send(event.dataTransfer.files[0]);
  };

  const generate = () => {
    setGenerating(true);
    api
      .sample({ mood, ...(orderId ? { orderId: Number(orderId) } : {}) })
      .then(onStarted, onError)
      .finally(() => setGenerating(false));
  };

  const percent = upload ? Math.round(upload.progress * 100) : 0;
  return (
    <div className="panel intake">
      <h2>New call</h2>
      <label
        className={`dropzone ${dragging ? 'dragging' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        Drop a call recording here, or click to choose a file
        <input
          type="file"
          accept="audio/*"
          className="visually-hidden"
          data-testid="file-input"
          onChange={(e) => {
            send(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </label>
      {upload && (
        <div className="upload">
          <span>
            {upload.done ? 'Uploaded' : 'Uploading'} {upload.name}
          </span>
          <div
            className="progress"
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <div className="bar" style={{ width: `${percent}%` }} />
          </div>
          <span className="percent">{percent}%</span>
        </div>
      )}
      <div className="sample">
        <select value={orderId} onChange={(e) => setOrderId(e.target.value)} aria-label="Order to call about">
          <option value="">latest order</option>
          {orders.map((o) => (
            <option key={o.id} value={o.id}>
              #{o.number} {o.customerName}
            </option>
          ))}
        </select>
        <select
          value={mood}
          onChange={(e) => setMood(e.target.value as 'unhappy' | 'happy')}
          aria-label="Caller mood"
        >
          <option value="unhappy">unhappy caller</option>
          <option value="happy">happy caller</option>
        </select>
        <button type="button" onClick={generate} disabled={generating || config?.speech.available === false}>
          {generating ? 'Generating…' : 'Generate a sample call'}
        </button>
      </div>
      {config && !config.speech.available && (
        <p className="notice" data-testid="speech-missing">
          {config.speech.missing}
        </p>
      )}
    </div>
  );
}
