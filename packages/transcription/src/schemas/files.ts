import * as z from 'zod/mini';

const uploadedFileShape = z.looseObject({
  /** Pass as `audio_url`; only API keys of the uploading project may use it (others get 403). */
  upload_url: z.string(),
});
/** Answer of `POST /v2/upload`. */
export interface UploadedFile extends z.infer<typeof uploadedFileShape> {}
export const uploadedFile: z.ZodMiniType<UploadedFile> = uploadedFileShape;
