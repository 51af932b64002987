/** A `review` comment on a product, with its `rating` and `verified` comment meta. */
export interface ReviewRec {
  id: number;
  product_id: number;
  status: string;
  reviewer: string;
  reviewer_email: string;
  review: string;
  rating: number;
  verified: boolean;
  created: number;
}
